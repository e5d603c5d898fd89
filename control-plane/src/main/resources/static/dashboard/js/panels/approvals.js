// Runs waiting for approval, with Approve / Reject (POST /api/runs/{id}/approve|reject).

import { $, fmtCount, h, message, setText, show, syncRows } from '../dom.js';

const WAITING = '/api/runs?state=AWAITING_APPROVAL&limit=100';

export function approvalsPanel(ctx) {
  const tbody = $('#approvals-table tbody');
  const badge = $('#approvals-count');

  function showCount(runs) {
    setText(badge, String(runs.length));
    badge.classList.toggle('attention', runs.length > 0);
  }

  async function decide(run, row, decision) {
    const c = row.cells$;
    c.approve.disabled = true;
    c.reject.disabled = true;
    try {
      const reason = c.reason.value.trim();
      const result = decision === 'approve'
        ? await ctx.api.post(`/api/runs/${encodeURIComponent(run.id)}/approve`)
        : await ctx.api.post(`/api/runs/${encodeURIComponent(run.id)}/reject`, reason ? { reason } : {});
      const text = `Run ${run.id} ${decision === 'approve' ? 'approved' : 'rejected'} by ${result.decidedBy || 'you'}: it is now ${result.state}.`;
      message(c.message, text, 'ok');
      message($('#approvals-message'), text, 'ok');
    } catch (e) {
      message(c.message, e.message, 'error');
      message($('#approvals-message'), e.message, 'error');
    } finally {
      c.approve.disabled = false;
      c.reject.disabled = false;
    }
    await ctx.refresh('approvals');
  }

  function create(run) {
    const id = run.id;
    const cell = (field, cls) => h('td', { testid: `approval-${field}-${id}`, class: cls });
    const cells = {
      dataset: cell('dataset'), approvalReason: cell('reason'), triggeredBy: cell('triggered-by'),
      final: cell('final', 'num'),
    };
    const row = h('tr', { testid: `approval-row-${id}` });
    const approve = h('button', { type: 'button', testid: `approve-button-${id}`, text: 'Approve',
      onclick: () => decide(run, row, 'approve') });
    const reason = h('input', { testid: `reject-reason-${id}`, placeholder: 'reason to reject', size: '24' });
    const reject = h('button', { type: 'button', testid: `reject-button-${id}`, class: 'danger', text: 'Reject',
      onclick: () => decide(run, row, 'reject') });
    const result = h('div', { testid: `approval-message-${id}`, class: 'message small', hidden: true });
    row.append(h('td', {}, h('code', { text: id })), cells.dataset, cells.approvalReason, cells.triggeredBy, cells.final,
      h('td', {}, approve, ' ', reason, ' ', reject, result));
    row.cells$ = { ...cells, approve, reject, reason, message: result };
    return row;
  }

  function update(row, run) {
    const c = row.cells$;
    setText(c.dataset, run.dataset);
    setText(c.approvalReason, run.approvalReason);
    setText(c.triggeredBy, run.triggeredBy);
    setText(c.final, fmtCount(run.finalCount));
  }

  return {
    async count() {
      showCount((await ctx.api.get(WAITING)) || []);
    },
    async refresh() {
      const runs = (await ctx.api.get(WAITING)) || [];
      showCount(runs);
      syncRows(tbody, runs, (run) => run.id, create, update);
      show($('#approvals-empty'), runs.length === 0);
    },
  };
}
