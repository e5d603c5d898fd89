@NullMarked
package io.erasure.model.check;

import org.jspecify.annotations.NullMarked;
