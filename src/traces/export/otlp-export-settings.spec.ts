import { InvalidConfigurationError } from '../../config';
import { DEFAULT_EXPORT_TIMEOUT_MS, otlpExportSettingsFrom, resourceAttributesOf } from './otlp-export-settings';

describe('otlpExportSettingsFrom', () => {
  it('defaults to OTLP/HTTP protobuf, a short timeout and the service name switchboard', () => {
    expect(otlpExportSettingsFrom({})).toEqual({
      protocol: 'http/protobuf',
      timeoutMs: DEFAULT_EXPORT_TIMEOUT_MS,
      serviceName: 'switchboard',
      resourceAttributes: {},
    });
  });

  it('reads the traces-specific variables before the general ones, as the SDK does', () => {
    const settings = otlpExportSettingsFrom({
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TIMEOUT: '9000',
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: '2500',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,service.name=from-attributes',
    });
    expect(settings).toMatchObject({ protocol: 'http/json', timeoutMs: 2500, serviceName: 'from-attributes' });
    expect(otlpExportSettingsFrom({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'agents' })).toMatchObject({
      protocol: 'http/json',
      serviceName: 'agents',
    });
  });

  it('stops the start on a protocol it cannot speak or a bad timeout, naming the variable', () => {
    expect(() => otlpExportSettingsFrom({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(InvalidConfigurationError);
    expect(() => otlpExportSettingsFrom({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http\/protobuf or http\/json \(got "grpc"\).*4318/,
    );
    expect(() => otlpExportSettingsFrom({ OTEL_EXPORTER_OTLP_TIMEOUT: '-1' })).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT must be a whole number/);
  });
});

describe('resourceAttributesOf', () => {
  it('reads key=value pairs, percent-decoded, and drops what it cannot read', () => {
    expect(resourceAttributesOf('a=1, b = two%20words ,broken,=x,c=%E0%A4%A')).toEqual({ a: '1', b: 'two words' });
    expect(resourceAttributesOf(undefined)).toEqual({});
  });
});
