@NullMarked
package io.erasure.model.backup;

import org.jspecify.annotations.NullMarked;
