@NullMarked
package io.erasure.store.spi;

import org.jspecify.annotations.NullMarked;
