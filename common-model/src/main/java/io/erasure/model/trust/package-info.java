@NullMarked
package io.erasure.model.trust;

import org.jspecify.annotations.NullMarked;
