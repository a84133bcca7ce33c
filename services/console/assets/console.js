// The console's only script: the copy button, confirmations before revoking, and the editor
// view's self-refresh. Everything works without it except the copy button.
document.addEventListener("click", async (event) => {
  const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
  if (!button) return;
  const input = document.getElementById(button.getAttribute("data-copy"));
  const status = document.getElementById("copy-status");
  try {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
    if (status) status.textContent = "The key is on your clipboard.";
  } catch {
    input.select();
    if (status)
      status.textContent = "Copying was refused by the browser: the key is selected, press Ctrl+C (⌘C).";
  }
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  const question = form instanceof HTMLFormElement ? form.getAttribute("data-confirm") : null;
  if (question && !window.confirm(question)) event.preventDefault();
});

const main = document.querySelector("main[data-refresh]");
if (main) setTimeout(() => window.location.reload(), Number(main.getAttribute("data-refresh")) * 1000);

const summary = document.querySelector(".error-summary");
if (summary) summary.focus();
