// Runs with state, progress and per-step counts (GET /api/runs, /api/runs/{id}).

import { $, DASH, fmtCount, fmtTime, h, setText, show, syncRows } from '../dom.js';
import { auditCounts, deletionTotals, droppedText, progress, refusedTasksText, validationCounts } from './run-counts.js';

const STATES = ['PENDING', 'AUDITING', 'VALIDATING', 'AWAITING_APPROVAL', 'AUTHORIZED', 'DELETING', 'VERIFYING',
  'COMPLETED', 'FAILED', 'CANCELLED', 'DRY_RUN_COMPLETED'];

export function runsPanel(ctx) {
  const tbody = $('#runs-table tbody');
  const stateFilter = $('#runs-filter-state');
  const datasetFilter = $('#runs-filter-dataset');
  stateFilter.append(...STATES.map((state) => new Option(state, state)));
  let selected = null;

  const refreshSoon = () => ctx.refresh('runs');
  stateFilter.addEventListener('change', refreshSoon);
  datasetFilter.addEventListener('change', refreshSoon);

  function create(run) {
    const id = run.id;
    const cell = (field, cls) => h('td', { testid: `run-${field}-${id}`, class: cls });
    const bar = h('span');
    const progressEl = h('div', {
      testid: `run-progress-${id}`, class: 'progress', role: 'progressbar', 'aria-valuemin': '0',
    }, bar);
    const progressText = h('div', { testid: `run-progress-text-${id}`, class: 'progress-text' });
    const state = h('span', { testid: `run-state-${id}`, class: 'state' });
    const dryRun = h('span', { testid: `run-dry-run-${id}`, class: 'muted small' });
    const cells = {
      dataset: cell('dataset'), scanned: cell('scanned', 'num'), candidates: cell('candidates', 'num'),
      final: cell('final', 'num'), dropped: cell('dropped'), resurrected: cell('resurrected', 'num'),
      deleted: cell('deleted', 'num'),
      skipped: cell('skipped', 'num'), absent: cell('absent', 'num'), failed: cell('failed', 'num'),
      readback: cell('readback'),
    };
    const triggeredBy = h('span', { testid: `run-triggered-by-${id}` });
    const createdAt = h('span', { testid: `run-created-at-${id}` });
    const details = h('button', { type: 'button', testid: `run-details-button-${id}`, text: 'Details',
      onclick: () => select(id) });
    const row = h('tr', { testid: `run-row-${id}` },
      h('td', {}, h('code', { text: id }), h('div', { class: 'muted small' }, 'by ', triggeredBy, ' at ', createdAt)),
      cells.dataset,
      h('td', {}, state, ' ', dryRun),
      h('td', {}, progressEl, progressText),
      cells.scanned, cells.candidates, cells.final, cells.dropped, cells.resurrected, cells.deleted, cells.skipped, cells.absent,
      cells.failed, cells.readback,
      h('td', {}, details));
    row.cells$ = { ...cells, state, dryRun, bar, progressEl, progressText, triggeredBy, createdAt };
    return row;
  }

  function update(row, run) {
    const c = row.cells$;
    setText(c.dataset, run.dataset);
    setText(c.state, run.state);
    c.state.className = `state state-${run.state}`;
    c.dryRun.textContent = run.dryRun ? 'dry-run' : '';
    setText(c.triggeredBy, run.triggeredBy);
    setText(c.createdAt, fmtTime(run.createdAt));
    const p = progress(run);
    c.bar.style.width = `${Math.round(p.fraction * 100)}%`;
    c.progressEl.setAttribute('aria-valuenow', String(p.done));
    c.progressEl.setAttribute('aria-valuemax', p.total === null ? '' : String(p.total));
    setText(c.progressText, p.total === null ? null : `${p.done} / ${p.total}`);
    const audit = auditCounts(run);
    // a Cassandra backup's tombstones: rows deleted but not yet purged by compaction, still in the backup's files
    setText(c.scanned, audit.deletedNotPurged > 0
      ? `${fmtCount(audit.scanned)} (${fmtCount(audit.deletedNotPurged)} deleted, not yet purged)`
      : fmtCount(audit.scanned));
    setText(c.candidates, fmtCount(audit.candidates));
    const validation = validationCounts(run);
    setText(c.final, fmtCount(validation.final));
    setText(c.dropped, droppedText(validation.droppedByReason));
    setText(c.resurrected, fmtCount(validation.resurrected));
    const deletion = deletionTotals(run);
    setText(c.deleted, deletion ? fmtCount(deletion.deleted) : null);
    setText(c.skipped, deletion ? fmtCount(deletion.skippedNewer) : null);
    setText(c.absent, deletion ? fmtCount(deletion.alreadyAbsent) : null);
    setText(c.failed, deletion ? fmtCount(deletion.failed) : null);
    setText(c.readback, deletion && deletion.batches ? `${fmtCount(deletion.clean)} clean, ${fmtCount(deletion.rowsRemaining)}`
      + ` rows remaining, ${fmtCount(deletion.notSupported)} not supported` : null);
    row.classList.toggle('selected', run.id === selected);
  }

  async function select(id) {
    selected = id;
    [...tbody.children].forEach((row) => row.classList.toggle('selected', row.dataset.key === id));
    await showDetail();
  }

  async function showDetail() {
    if (!selected) {
      show($('#run-detail'), false);
      return;
    }
    const run = await ctx.api.get(`/api/runs/${encodeURIComponent(selected)}`);
    setText($('#run-detail-id'), run.id);
    const state = setText($('#run-detail-state'), run.state);
    state.className = `state state-${run.state}`;
    setText($('#run-detail-failure'), run.failureReason);
    setText($('#run-detail-approval-reason'), run.approvalReason);
    setText($('#run-detail-decided-by'), run.decidedBy);
    setText($('#run-detail-refused-tasks'), refusedTasksText(run));
    const steps = Object.entries(run.steps || {}).sort(([, a], [, b]) => String(a).localeCompare(String(b)));
    $('#run-detail-steps').replaceChildren(...steps.map(([step, at]) => h('li', { text: `${step} at ${fmtTime(at)}` })));
    const receipt = $('#run-detail-receipt');
    const text = run.receipt ? JSON.stringify(run.receipt, null, 2) : `${DASH} (issued when the run completes)`;
    if (receipt.textContent !== text) {
      receipt.textContent = text;
    }
    show($('#run-detail'), true);
  }

  return {
    async refresh() {
      const query = new URLSearchParams({ limit: '50' });
      if (stateFilter.value) {
        query.set('state', stateFilter.value);
      }
      if (datasetFilter.value.trim()) {
        query.set('dataset', datasetFilter.value.trim());
      }
      const runs = (await ctx.api.get(`/api/runs?${query}`)) || [];
      syncRows(tbody, runs, (run) => run.id, create, update);
      show($('#runs-empty'), runs.length === 0);
      await showDetail();
    },
  };
}
