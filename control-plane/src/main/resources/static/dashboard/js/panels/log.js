// Deletion-log search by key (deletion-log-service GET /api/log/{dataset}/keys?key=<json>) and a recovery of that
// key (recovery-service POST /api/recoveries without a spec: each record is restored under the spec its run froze).

import { $, fmtJson, fmtTime, h, message, setText, show } from '../dom.js';

export function logPanel(ctx) {
  let found = null; // the last search's answer

  async function search(event) {
    event.preventDefault();
    message($('#log-error'), '');
    message($('#recover-message'), '');
    show($('#log-result'), false);
    found = null;
    const dataset = $('#log-dataset').value.trim();
    let key;
    try {
      key = JSON.parse($('#log-key').value);
      if (!key || typeof key !== 'object' || Array.isArray(key)) {
        throw new Error('not an object');
      }
    } catch (e) {
      message($('#log-error'), 'The primary key must be a JSON object of the key columns, e.g. {"customer_id": 42}', 'error');
      return;
    }
    const button = $('#log-search');
    button.disabled = true;
    try {
      const path = `/api/log/${encodeURIComponent(dataset)}/keys?key=${encodeURIComponent(JSON.stringify(key))}`;
      found = await ctx.api.service('deletionLog', path);
      showResult(found);
    } catch (e) {
      message($('#log-error'), e.message, 'error');
    } finally {
      button.disabled = false;
    }
  }

  function showResult(history) {
    setText($('#log-result-key'), JSON.stringify(history.key));
    setText($('#log-status'), history.purged ? 'PURGED' : history.deleted ? 'DELETED' : 'NOT DELETED');
    const rows = (history.records || []).map((record) => h('tr', {
      'data-testid': 'log-record', dataset: { recordId: record.recordId, runId: record.runId || record.requestId || '' },
    },
    h('td', { 'data-testid': 'log-record-deleted-at', text: fmtTime(record.deletedAt) }),
    h('td', { 'data-testid': 'log-record-run', text: record.runId || record.requestId || '—' }),
    h('td', { 'data-testid': 'log-record-task', text: record.taskId || '—' }),
    h('td', { 'data-testid': 'log-record-batch', text: record.batchId || '—' }),
    h('td', { class: 'num', text: String(record.cutoffMicros) }),
    h('td', {}, record.purged ? 'purged' : record.columns ? h('code', { text: fmtJson(columnsOf(record)) }) : '—')));
    $('#log-records tbody').replaceChildren(...rows);
    show($('#log-columns-note'), (history.records || []).some((r) => !r.purged && !r.columns));
    const restorable = (history.records || []).some((r) => !r.purged);
    show($('#recover-form'), restorable);
    show($('#log-result'), true);
  }

  function columnsOf(record) {
    return Object.fromEntries(record.columns.map((c) => [c.name, c.value]));
  }

  async function recover(event) {
    event.preventDefault();
    if (!found) {
      return;
    }
    const button = $('#recover-button');
    button.disabled = true;
    const out = $('#recover-message');
    delete out.dataset.recoveryId;
    try {
      const dryRun = $('#recover-dry-run').checked;
      const created = await ctx.api.service('recovery', '/api/recoveries', {
        method: 'POST',
        body: {
          scope: { type: 'keys', dataset: found.dataset, keys: [found.key] },
          dryRun,
          reason: $('#recover-reason').value.trim(),
        },
      });
      message(out, `Recovery ${created.id} requested (${created.dryRun ? 'dry-run' : 'restore'}): ${created.status}`, 'ok');
      out.dataset.recoveryId = created.id;
      ctx.panels.recoveries.select(created.id);
      ctx.openTab('recoveries');
    } catch (e) {
      message(out, e.message, 'error');
    } finally {
      button.disabled = false;
    }
  }

  $('#log-form').addEventListener('submit', search);
  $('#recover-form').addEventListener('submit', recover);
  return {
    async refresh() {
      await ctx.datasets(); // fills the dataset suggestions
    },
  };
}
