package io.erasure.store.postgres.plan;

/**
 * The catalog is no longer at the version a plan was made at (or the dataset was checked at): the plan is not
 * executed. The adapter checks the dataset again, which refuses it if the change made it unsafe (a cascading foreign
 * key), and otherwise has the batch planned, read and logged again under the new schema.
 */
public final class StaleSchema extends RuntimeException {

    public StaleSchema(String message) {
        super(message, null, false, false);
    }
}
