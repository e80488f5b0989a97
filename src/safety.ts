/**
 * proctor/safety — what a tool call may do, decided before or after it runs: the shell
 * classifier, effect classes and the purity ladder, tool-argument policies, the Rule of Two,
 * approval rungs, typed tool-result envelopes, skill contracts, and the checks built on them.
 */

// The shell classifier: what a Bash command does, parsed (never guessed from text)
export { classifyBash, isReadOnlyBash, explainBash } from "./effects/bash/classify.js";
export type { BashEffect, BashVerdict, BashContext } from "./effects/bash/classify.js";
export { loadShellParser } from "./effects/bash/parser.js";
export { simpleCommands } from "./effects/bash/simple-commands.js";
export { PROGRAM_KEYS, PROGRAM_ENV } from "./effects/bash/context/program-keys.js";
export type { ProgramKey, ProgramEnv } from "./effects/bash/context/program-keys.js";

// Effect classes, the purity ladder, the lethal trifecta
export { claudeCodeDialect, codexDialect, shellCommandOf } from "./effects/dialect.js";
export type { HarnessDialect } from "./effects/dialect.js";
export { classifyToolEffect, effectSurface, purityViolations, pureContractViolations, PURITY_LEVELS } from "./effects/effects.js";
export type { ToolEffect, PurityLevel, EffectSurface, PureViolation } from "./effects/effects.js";
export { decidePurityGate } from "./effects/purity-gate.js";
export type { PurityGateDecision } from "./effects/purity-gate.js";
export { classifyTrifectaLegs, holdsLethalTrifecta } from "./effects/trifecta.js";
export type { TrifectaLegs } from "./effects/trifecta.js";

// Tool-argument policies (Progent), the Rule of Two, policy files, the gate
export { evaluatePermissionDecision, evaluateToolArgumentPolicy, isToolDeniedByName } from "./policy/tool-argument-policy.js";
export type {
  TrifectaLeg,
  PolicySideEffectClass,
  ToolCallFacts,
  PermissionEffect,
  ToolRuleEffect,
  ToolArgumentRule,
  ToolArgumentPolicy,
  ToolPolicyDecision,
  PermissionDecision,
  NameDenialDecision,
} from "./policy/tool-argument-policy.js";
export { toolCallFacts } from "./policy/tool-facts.js";
export type { ToolFactOverride } from "./policy/tool-facts.js";
export { buildRuleOfTwoPolicy } from "./policy/rule-of-two.js";
export type { RuleOfTwoProfile, RuleOfTwoCompilation } from "./policy/rule-of-two.js";
export { parsePolicy, parsePolicyText, readPolicyFile } from "./policy/policy-file.js";
export type { PolicyFile } from "./policy/policy-file.js";
export { decideGate } from "./policy/gate.js";
export type { GateOptions, GateDecision, GateAnswer } from "./policy/gate.js";

// Approval rungs
export {
  APPROVAL_RUNGS,
  RUNG_TOOL_DESCRIPTION_SUFFIXES,
  BUILT_IN_TOOL_ACCESS,
  getRungToolDescriptionSuffix,
  isAccessClassGrantedAtRung,
  isGrantedAtRung,
  isToolGatedAtRung,
  resolveGatedToolNames,
  stripRungToolDescriptionSuffix,
  applyRungAwareToolDescriptions,
} from "./policy/rungs.js";
export type { ApprovalRung, BuiltInToolAccess, DescribableTool, GateQuery } from "./policy/rungs.js";

// Typed tool-result envelopes
export { TOOL_RESULT_STATUSES, readToolResultEnvelope, explainStatusOnlyNearMiss, tenantOf, activeLeaseIds, pruneLeases } from "./policy/envelope.js";
export type {
  ToolResultStatus,
  ProposeTransitionEffect,
  RequireInstructionEffect,
  ProposedEffect,
  InstructionDeliveryLease,
  ToolResultEnvelope,
  ReadToolResultEnvelope,
  InstructionLease,
  PendingToolTransition,
} from "./policy/envelope.js";

// Skill contracts and the safety checks (checkFromJSON in `proctor` rebuilds these too)
export { skillContract, readSkillDeclaration } from "./contracts/skill-contract.js";
export type { SkillDeclaration } from "./contracts/skill-contract.js";
export { skillTools, skillPurity } from "./contracts/skill-scope.js";
export { purity, lethalTrifecta } from "./checks/safety.js";
