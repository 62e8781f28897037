/** `GET /openapi.json`: the app's OpenAPI 3.1 document, unless a controller declares that route itself. */
import type {FastifyInstance} from 'fastify'
import {projectInfo} from '../config.js'
import {openapiDocument} from '../openapi.js'
import type {Project} from '../project.js'

export async function openapiRoute(app: FastifyInstance, {project}: {project: Project}): Promise<void> {
  const declared = project.controllers.some(({definition}) => Object.keys(definition.routes).includes('GET /openapi.json'))
  if (declared) return
  const document = openapiDocument(project.config, project.entities, project.controllers, projectInfo(project.root), {errorSchema: project.problemSchema, authSchemes: project.authSchemes})
  app.get('/openapi.json', async () => document)
}
