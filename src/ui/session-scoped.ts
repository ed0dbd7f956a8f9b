// State that outlives its view: a tab's view is rebuilt each time the tab opens, but a running
// lane, its result and the options that produced it should still be there when the user comes
// back. Created once, on first use (with that call's arguments), in a root that lives as long
// as the page.
import { createRoot } from 'solid-js';

export function sessionScoped<A extends unknown[], T>(create: (...args: A) => T): (...args: A) => T {
  let made: { value: T } | null = null;
  return (...args: A) => {
    made ??= { value: createRoot(() => create(...args)) };
    return made.value;
  };
}
