// What Vite's `?raw` import gives (vite/client declares it for the page's projects; src/core's own
// tsconfig has no vite/client, which brings the DOM lib with it).
declare module '*?raw' {
  const text: string;
  export default text;
}
