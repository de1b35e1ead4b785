import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { FishlogProblem } from './problem.js';
import type { paths } from './schema.js';

/** The HTTP methods of the API's operations. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

/** The options of a call (path, query and header parameters, body, fetch options). */
export type CallInit<P extends keyof paths, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** The options argument: optional when nothing in it is required. */
export type CallArgs<I> = RequiredKeys<I> extends never ? [init?: I & { [key: string]: unknown }] : [init: I & { [key: string]: unknown }];

/** What a call answers: the typed data of a success, or the problem of a failure (never both). */
export type FishlogResult<T> = { data: T; error?: never; response: Response } | { data?: never; error: FishlogProblem; response: Response };

/** The success data of the operation `M` of `P` called with `I`. */
export type SuccessData<P extends keyof paths, M extends HttpMethod, I> = NonNullable<FetchResponse<paths[P][M] & Record<string | number, unknown>, I, `${string}/${string}`>['data']>;

/** A typed call of one method: `client.GET('/api/fishinglog/entries/{id}', { params: { path: { id } } })`. */
export type Call<M extends HttpMethod> = <P extends PathsWith<M>, I extends CallInit<P, M>>(path: P, ...init: CallArgs<I>) => Promise<FishlogResult<SuccessData<P, M, I>>>;

type JsonOk<O> = O extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/** The GET paths that answer a JSON array (lists and feeds, paged by their `Link` header). */
export type ListPath = {
  [P in PathsWith<'get'>]: JsonOk<paths[P]['get']> extends readonly unknown[] ? P : never;
}[PathsWith<'get'>];

/** One item of the list at `P`. */
export type ListItem<P extends ListPath> = JsonOk<paths[P]['get']> extends readonly (infer T)[] ? T : never;

/** The paths whose `M` operation takes a file as `multipart/form-data` (photo uploads). */
export type UploadPath<M extends 'post' | 'put'> = {
  [P in PathsWith<M>]: paths[P][M] extends { requestBody: { content: { 'multipart/form-data': unknown } } } ? P : never;
}[PathsWith<M>];

/** The options of an upload: the operation's parameters, and the file's name (default: the File's, else `photo`). */
export type UploadInit<P extends keyof paths, M extends HttpMethod> = Omit<CallInit<P, M>, 'body'> & { filename?: string };

type ResponsesOf<P extends keyof paths, M extends HttpMethod> = paths[P][M] extends { responses: infer R } ? R : never;

/**
 * The statuses at which operation `M` of `P` answers a problem (`application/problem+json`): its
 * own (a 404, a 409 …) and those every signed-in operation can give (401, the 403 of a banned or
 * deactivated caller, 429, the 503 of maintenance or an unreachable database, 500).
 */
export type ProblemStatus<P extends keyof paths, M extends HttpMethod> = {
  [S in keyof ResponsesOf<P, M>]: ResponsesOf<P, M>[S] extends { content: { 'application/problem+json': unknown } } ? S : never;
}[keyof ResponsesOf<P, M>];
