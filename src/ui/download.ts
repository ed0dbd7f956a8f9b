// Saving a JSON file from the page: a Blob behind a temporary link (no server involved).
export function downloadJson(fileName: string, value: unknown): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2) + '\n'], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own reference by now; the object URL only needs to outlive the click.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
