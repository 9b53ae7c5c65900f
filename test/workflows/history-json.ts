/**
 * Workflow histories as JSON files in the format `temporal workflow show --output json` and the Temporal UI's
 * download write (ProtoJSON), so a history taken from production can be dropped among the fixtures as it is.
 *
 * Why not historyToJSON/historyFromJSON of @temporalio/common: npm installs two copies of protobufjs 8 here
 * (one under @temporalio/common, one under @temporalio/proto; the top level holds grpc's protobufjs 7), and
 * those helpers then throw "type must be a Type" (common's ProtoJSON checks instanceof against its own copy).
 * The ProtoJSON module of the protobufjs that @temporalio/proto was built with does the same conversion.
 */
import path from 'node:path';
import * as proto from '@temporalio/proto';
import { patchProtobufRoot } from '@temporalio/proto/lib/patch-protobuf-root';

export type History = proto.temporal.api.history.v1.IHistory;

interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}

const protoPackageDir = path.dirname(require.resolve('@temporalio/proto/package.json'));
const protojson: ProtoJson = require(require.resolve('protobufjs/ext/protojson', { paths: [protoPackageDir] }));
const historyType = (patchProtobufRoot(proto) as unknown as { lookupType(name: string): unknown }).lookupType(
  'temporal.api.history.v1.History',
);

export function historyToJson(history: History): string {
  const message = proto.temporal.api.history.v1.History.fromObject(history);
  return `${JSON.stringify(protojson.toJson(historyType, message), null, 2)}\n`;
}

/** A history file back into the message a replay worker takes (fields a newer server added are ignored). */
export function historyFromJson(json: unknown): History {
  return protojson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}

/** The workflow type a history ran, from its first event. */
export function workflowTypeOf(history: History): string | undefined {
  return history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? undefined;
}
