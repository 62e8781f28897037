// @redocly/cli for the benches that measure against it (import, diff): not a dependency of apipe, so it is installed
// on demand (bench/on-demand.js). Without it the redocly rows say why.
import {onDemand} from './on-demand.js'

export const redoclyVersion = '2.77.0'

/** Where redocly's CLI is, and why it is missing when it could not be installed. */
export function redocly() {
  const {path: bin, missing} = onDemand('@redocly/cli', redoclyVersion, 'apipe-bench-redocly', 'bin', 'cli.js')
  return {bin, missing}
}
