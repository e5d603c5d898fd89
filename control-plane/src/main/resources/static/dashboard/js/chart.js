// A small SVG line chart: time on x, one polyline per series, three y ticks, a legend with the last values.

const NS = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) {
    el.setAttribute(name, value);
  }
  if (text !== undefined) {
    el.textContent = text;
  }
  return el;
}

/**
 * Draws into svg (its content is replaced).
 * series: [{ name, points: [{ t: epochMillis, v: number|null }] }] (a null value is a gap: the line breaks there);
 * from/to: the time window; yMax: the top of the y axis (default: the largest value plus 10 %, at least minMax);
 * format: how a y value is printed.
 */
export function drawLineChart(svg, { series, from, to, yMax, minMax = 1, format = (v) => String(Math.round(v)) }) {
  const width = 460;
  const height = 160;
  const pad = { left: 46, right: 10, top: 18, bottom: 18 };
  const values = series.flatMap((s) => s.points.map((p) => p.v)).filter((v) => Number.isFinite(v));
  const top = yMax ?? Math.max(minMax, (values.length ? Math.max(...values) : 0) * 1.1);
  const span = Math.max(1, to - from);
  const x = (t) => pad.left + ((t - from) / span) * (width - pad.left - pad.right);
  const y = (v) => height - pad.bottom - (Math.min(v, top) / top) * (height - pad.top - pad.bottom);

  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.replaceChildren();
  for (const fraction of [0, 0.5, 1]) {
    const value = top * fraction;
    svg.append(svgEl('line', { class: 'axis', x1: pad.left, x2: width - pad.right, y1: y(value), y2: y(value) }));
    svg.append(svgEl('text', { class: 'tick', x: pad.left - 4, y: y(value) + 3, 'text-anchor': 'end' }, format(value)));
  }
  const clock = (t) => new Date(t).toISOString().substring(11, 19);
  svg.append(svgEl('text', { class: 'tick', x: pad.left, y: height - 4 }, clock(from)));
  svg.append(svgEl('text', { class: 'tick', x: width - pad.right, y: height - 4, 'text-anchor': 'end' }, clock(to)));

  let legendX = pad.left;
  series.forEach((s, i) => {
    const inWindow = s.points.filter((p) => p.t >= from);
    const points = inWindow.filter((p) => Number.isFinite(p.v));
    const cls = `series-${i}`;
    // a null value is a gap (nothing reported then): the line stops there and starts again after it
    const runs = [[]];
    for (const p of inWindow) {
      if (Number.isFinite(p.v)) {
        runs[runs.length - 1].push(p);
      } else if (runs[runs.length - 1].length) {
        runs.push([]);
      }
    }
    for (const run of runs) {
      if (run.length > 1) {
        svg.append(svgEl('polyline', {
          class: cls, 'data-series': s.name,
          points: run.map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' '),
        }));
      } else if (run.length === 1) {
        svg.append(svgEl('circle', { class: cls, 'data-series': s.name, cx: x(run[0].t), cy: y(run[0].v), r: 2.5 }));
      }
    }
    const last = points.length ? format(points[points.length - 1].v) : '—';
    const label = svgEl('text', { class: `legend ${cls}`, x: legendX, y: 11 }, `${s.name}: ${last}`);
    svg.append(label);
    legendX += 150;
  });
}
