// A run's per-step counts, whichever shape the control plane recorded them in.

/**
 * The deletion totals of a run: counts.deletion while it runs (BatchTotals), or the receipt's deletion
 * totals (snake_case column names in older receipts); null before any batch reported.
 */
export function deletionTotals(run) {
  const live = run.counts && run.counts.deletion;
  if (live && typeof live === 'object') {
    const readBack = live.readBack || {};
    return {
      batches: live.batches, deleted: live.deleted, skippedNewer: live.skippedNewer, alreadyAbsent: live.alreadyAbsent,
      failed: live.failed, stillPresent: live.stillPresent,
      clean: readBack.cleanBatches, rowsRemaining: readBack.rowsRemainingBatches, notSupported: readBack.notSupportedBatches,
    };
  }
  const receipt = run.receipt && run.receipt.deletion;
  if (receipt && typeof receipt === 'object') {
    const pick = (camel, snake) => (receipt[camel] !== undefined ? receipt[camel] : receipt[snake]);
    const readBack = receipt.readBack || {};
    return {
      batches: receipt.batches, deleted: receipt.deleted, skippedNewer: pick('skippedNewer', 'skipped_newer'),
      alreadyAbsent: pick('alreadyAbsent', 'already_absent'), failed: receipt.failed,
      stillPresent: pick('stillPresent', 'still_present'),
      clean: readBack.cleanBatches ?? receipt.read_back_clean,
      rowsRemaining: readBack.rowsRemainingBatches ?? receipt.read_back_rows_remaining,
      notSupported: readBack.notSupportedBatches ?? receipt.read_back_not_supported,
    };
  }
  return null;
}

export function auditCounts(run) {
  const audit = (run.counts && run.counts.audit) || {};
  return { scanned: audit.rowsScanned ?? run.totalRows, candidates: audit.candidates ?? run.candidateCount,
    deletedNotPurged: audit.deletedNotPurged ?? 0 };
}

export function validationCounts(run) {
  const validation = (run.counts && run.counts.validation) || {};
  return { final: validation.final ?? run.finalCount, droppedByReason: validation.droppedByReason || null,
    resurrected: validation.resurrected ?? null };
}

/** "newer_than_cutoff: 2, identifier_alive: 1", "0" when nothing was dropped, null before validation. */
export function droppedText(droppedByReason) {
  if (!droppedByReason) {
    return null;
  }
  const entries = Object.entries(droppedByReason).filter(([, n]) => n > 0);
  return entries.length === 0 ? '0' : entries.map(([reason, n]) => `${reason}: ${n}`).join(', ');
}

/** Batches completed out of the task count (unknown until validation has cut the final set into tasks). */
export function progress(run) {
  const total = run.taskCount;
  const done = run.batchesCompleted || 0;
  if (total === null || total === undefined) {
    return { done, total: null, fraction: 0 };
  }
  // a final set of no rows has no task: nothing is left to do
  return { done, total, fraction: total === 0 ? 1 : Math.min(1, done / total) };
}

/**
 * "2, latest: <reason>" for the tasks claiming the run that deletion refused as not proven authentic (they deleted and
 * failed nothing), null when there were none.
 */
export function refusedTasksText(run) {
  const refused = run.counts && run.counts.refusedTasks;
  if (!refused || !refused.count) {
    return null;
  }
  return `${refused.count}, latest (${refused.latestReasonClass}): ${refused.latestReason}`;
}
