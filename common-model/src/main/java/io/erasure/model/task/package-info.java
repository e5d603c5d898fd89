@NullMarked
package io.erasure.model.task;

import org.jspecify.annotations.NullMarked;
