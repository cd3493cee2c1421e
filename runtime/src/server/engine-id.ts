/** The engine's own resource id, which the platform injects (the contract's name and the real one). */
export function readEngineId(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const id = env['GOOGLE_CLOUD_AGENT_ENGINE_ID'] || env['PLATFORM_CLOUD_AGENT_ENGINE_ID'];
  return id === undefined || id === '' ? undefined : id;
}
