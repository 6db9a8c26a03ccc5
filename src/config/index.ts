/**
 * The config context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside config/ import each other directly, never this file.
 */
export { ConfigModule, SWITCHBOARD_CONFIG } from './config.module';
export { modelPriceTable, priceOf } from './model-prices';
export type { ModelPriceTable } from './model-prices';
export { METADATA_HOSTS, alwaysRefusedReason, canonicalAddress, embeddedIpv4, isLoopback, normaliseHost } from './outbound-address';
export { OutboundAllowList } from './outbound-allow-list';
export { formatAuthority, parseAllowedHost, parseAuthority } from './served-names';
export type { AllowedHost, HostAndPort } from './served-names';
export { InvalidConfigurationError, loadConfig, withoutPassword } from './switchboard-config';
export type { CopilotCliConfig, SignInConfig, SwitchboardConfig } from './switchboard-config';
