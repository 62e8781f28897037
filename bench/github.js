// GitHub's REST descriptions, held out of the corpus: the @octokit/openapi package at one pinned version, installed on
// demand as redocly is (bench/on-demand.js), never a dependency. api.github.com.json (13 MB, 1,223 operations) is a
// row of bench/import.js; GitHub Enterprise Server 3.18 and 3.19 (11 MB each) are a pair of bench/diff.js.
import {onDemand} from './on-demand.js'

export const octokitVersion = '23.0.2'

/** The folder of the package's descriptions, and why it is missing when it could not be installed. */
export function githubDescriptions() {
  const {path: folder, missing} = onDemand('@octokit/openapi', octokitVersion, 'apipe-bench-github', 'generated')
  return {folder, missing}
}
