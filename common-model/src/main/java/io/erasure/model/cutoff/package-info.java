@NullMarked
package io.erasure.model.cutoff;

import org.jspecify.annotations.NullMarked;
