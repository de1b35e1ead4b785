/** The photos module's shared schema (registered on the root app, so every module's views `$ref` it) and its service. */
export { Photo } from './photos.schemas.js';
