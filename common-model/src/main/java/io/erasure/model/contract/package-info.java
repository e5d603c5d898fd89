@NullMarked
package io.erasure.model.contract;

import org.jspecify.annotations.NullMarked;
