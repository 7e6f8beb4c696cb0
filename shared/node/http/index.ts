/** The HTTP kit both deployables' servers use: see the modules for each piece. */
export { bodyTooLarge, isJsonContentType, notJson, parseJson, readBody } from './body.ts';
export { mimeOf } from './mime.ts';
export { errorReply, JSON_TYPE, sendBody, sendJson, type ErrorBody } from './send.ts';
export { staticFiles, type StaticFiles, type StaticOptions, type StaticOutcome } from './static.ts';
export {
  authorize,
  readInput,
  routeBuilder,
  routeTable,
  runRoute,
  schemaRefusal,
  type CallerOf,
  type Callers,
  type HttpMethod,
  type InputOptions,
  type Match,
  type Route,
  type RouteCall,
  type RouteInput,
  type RouteTable,
  type Who,
} from './routes.ts';
