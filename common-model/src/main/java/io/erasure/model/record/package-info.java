@NullMarked
package io.erasure.model.record;

import org.jspecify.annotations.NullMarked;
