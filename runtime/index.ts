/**
 * `apipe/runtime`: what user code of a framework project imports (define helpers and types). The framework itself
 * arrives with the runtime issues; until then this entry exports the package version so the export map resolves.
 */
export const runtimeVersion = '0.1.0'
