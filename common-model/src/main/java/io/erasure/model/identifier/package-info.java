@NullMarked
package io.erasure.model.identifier;

import org.jspecify.annotations.NullMarked;
