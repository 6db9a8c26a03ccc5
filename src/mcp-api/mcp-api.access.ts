import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** `/mcp` itself is open to every role; each tool and resource has its own rule (`Mcp.<name>`), written by the context that owns it. */
export const MCP_API_ACCESS = {
  'McpController.post': ['read'],
  'McpController.stream': ['read'],
  'McpController.end': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class McpApiAccess implements AccessRuleSet {
  readonly rules: AccessRules = MCP_API_ACCESS;
}
