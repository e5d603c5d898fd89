/**
 * Forward deletion (DESIGN "forward deletion", issue 10): an upstream system says an identifier is
 * deleted, and its rows go everywhere at once instead of waiting for the nightly audit.
 *
 * <h2>Flow</h2>
 * <ol>
 *   <li><b>Intake</b> ({@link io.erasure.controlplane.forward.ForwardIntake}): {@code ForwardDeletionRequested}
 *       envelopes on {@code erasure.forward.requests}, or {@code POST /api/forward-requests} by a PUBLISHER
 *       (an upstream system's role, which can do nothing else) or an OPERATOR. In one transaction: drop a
 *       redelivered event (duplicate), an event in a chain this control plane originated (loop), or a version
 *       not newer than the identifier's current one (out-of-order), each counted in
 *       {@code erasure.forward.intake{outcome}}; move the version by compare-and-set; write the request
 *       TOMBSTONED (its time, never later than intake, is the cut-off) or HELD in a burst; record its targets
 *       and put their tasks in the outbox.</li>
 *   <li><b>Targets</b> ({@link io.erasure.controlplane.forward.ForwardTargets}): each registered dataset whose
 *       identifier source is the aggregate type (or a child type of {@code childIds}). The identifier is the whole
 *       primary key: a {@code DeletionTask.forward} per 1,000 ids. It is another column of a table: a
 *       {@code DeletionTask.forwardLookup} per 1,000 ids, which the deletion service resolves through an index into
 *       ordinary tasks and reports (or refuses, and the target is left to the nightly audit with the store's reason).
 *       A tableless dataset addressed by another column is left to the audit at once. Copies follow through the
 *       deletion service's fan-out. The dataset's policy ({@code PUT /api/datasets/{name}/forward-policy}, its OWNER)
 *       deletes (default), keeps a snapshot (recorded, nothing deleted) or anonymises: the tasks clear the policy's
 *       columns instead of deleting the rows, logged write-ahead so a recovery puts them back.</li>
 *   <li><b>Progress</b> ({@link io.erasure.controlplane.forward.ForwardProgress}): BatchCompleted/BatchFailed with
 *       the request id, read in a consumer group of its own on {@code erasure.run.events}. A target is confirmed
 *       once its lookups (if any) reported the tasks they published, those source batches reported every key and
 *       each copy task they published reported (DELETED, or ANONYMISED); the request is PURGED once every target
 *       that must confirm has.</li>
 *   <li><b>Reconciler</b> ({@link io.erasure.controlplane.forward.ForwardReconciler}) and
 *       <b>partitions</b> ({@link io.erasure.controlplane.forward.RequestPartitions}).</li>
 * </ol>
 *
 * <h2>Endpoints</h2>
 * {@code POST /api/forward-requests} (PUBLISHER, OPERATOR),
 * {@code GET /api/forward-requests[?state&aggregateType&aggregateId&limit]}, {@code GET /api/forward-requests/{id}}
 * (with targets), {@code POST /api/forward-requests/held/approve[?aggregateType]} (OPERATOR, not for their own
 * requests; in the actions log), {@code PUT|GET /api/datasets/{name}/forward-policy}.
 *
 * <h2>Properties</h2>
 * {@code erasure.forward.burst.max-per-window} (1000, per aggregate type) and {@code .burst.window} (1m);
 * {@code reconcile-after} (10m; re-published again after 2×, 4×… that, at most alert-after / 4), {@code alert-after}
 * (24h), {@code reconcile-interval} (1m);
 * {@code retention.<aggregateType>} and {@code default-retention} (90d); {@code months-ahead} (2).
 */
package io.erasure.controlplane.forward;
