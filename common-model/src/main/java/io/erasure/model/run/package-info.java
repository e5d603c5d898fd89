@NullMarked
package io.erasure.model.run;

import org.jspecify.annotations.NullMarked;
