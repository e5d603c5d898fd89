@NullMarked
package io.erasure.model.candidate;

import org.jspecify.annotations.NullMarked;
