import { count, type Html, html } from "../html.ts";

/**
 * Requests per day as an SVG bar chart, drawn on the server (no chart library, no script), with
 * the same figures in a table for screen readers and for reading exact values.
 */
export function usageChart(days: Array<{ day: string; requests: number }>): Html {
  const width = 600;
  const height = 160;
  const most = Math.max(0, ...days.map((d) => d.requests));
  const top = Math.max(1, most);
  const slot = width / Math.max(1, days.length);
  const total = days.reduce((sum, d) => sum + d.requests, 0);
  const first = days[0]?.day ?? "";
  const last = days.at(-1)?.day ?? "";
  return html`<figure class="chart">
  <svg viewBox="0 0 ${width} ${height + 20}" role="img" aria-labelledby="usage-chart-title" preserveAspectRatio="none">
    <title id="usage-chart-title">Requests per day, ${first} to ${last}: ${count(total)} in all, at most ${count(most)} in a day</title>
    <line x1="0" y1="${height}" x2="${width}" y2="${height}" class="axis"/>
    ${days.map((d, i) => {
      const barHeight = Math.round((d.requests / top) * (height - 10));
      return html`<rect x="${(i * slot + 1).toFixed(1)}" y="${height - barHeight}" width="${Math.max(1, slot - 2).toFixed(1)}" height="${barHeight}" class="bar"><title>${d.day}: ${count(d.requests)} requests</title></rect>`;
    })}
    <text x="0" y="${height + 16}" class="tick">${first}</text>
    <text x="${width}" y="${height + 16}" text-anchor="end" class="tick">${last}</text>
  </svg>
  <figcaption>Requests per day (UTC), last ${days.length} days; at most ${count(most)} in a day.</figcaption>
  <details>
    <summary>Show the figures</summary>
    <table>
      <thead><tr><th scope="col">Day</th><th scope="col" class="num">Requests</th></tr></thead>
      <tbody>${days.map((d) => html`<tr><td>${d.day}</td><td class="num">${count(d.requests)}</td></tr>`)}</tbody>
    </table>
  </details>
</figure>`;
}
