@NullMarked
package io.erasure.model.key;

import org.jspecify.annotations.NullMarked;
