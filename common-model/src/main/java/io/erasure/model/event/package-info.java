@NullMarked
package io.erasure.model.event;

import org.jspecify.annotations.NullMarked;
