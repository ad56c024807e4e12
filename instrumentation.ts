/**
 * Runs once when a server process starts (`npm run dev`, `npm start`). Everything it does needs
 * Node.js, so it lives in `instrumentation-node.ts`, imported only in the Node.js runtime (the
 * Edge bundle of this file then contains none of it).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { registerNode } = await import("./instrumentation-node");
    await registerNode();
  }
}
