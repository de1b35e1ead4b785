import type { FastifyReply } from 'fastify';
import type { readPhoto } from './photos.service.js';

/** Answers a photo's file: its bytes, a redirect to a presigned URL, or 304; cacheable publicly only when its record is public. */
export function sendPhotoFile(reply: FastifyReply, file: Awaited<ReturnType<typeof readPhoto>>) {
  reply.header('etag', file.etag).header('cache-control', file.isPublic ? 'public, max-age=86400' : 'private, no-cache').header('vary', 'Authorization');
  if ('notModified' in file) return reply.code(304).send();
  if (file.redirect) return reply.redirect(file.redirect, 302);
  return reply.type('image/jpeg').header('x-content-type-options', 'nosniff').header('content-disposition', 'inline').send(file.body);
}
