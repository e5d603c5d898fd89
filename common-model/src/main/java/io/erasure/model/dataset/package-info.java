@NullMarked
package io.erasure.model.dataset;

import org.jspecify.annotations.NullMarked;
