@NullMarked
package io.erasure.model.recovery;

import org.jspecify.annotations.NullMarked;
