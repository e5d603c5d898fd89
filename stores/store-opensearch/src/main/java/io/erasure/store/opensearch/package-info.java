/** The OpenSearch / Elasticsearch store adapter: search indexes as datasets and as copies. */
@NullMarked
package io.erasure.store.opensearch;

import org.jspecify.annotations.NullMarked;
