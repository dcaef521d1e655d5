/**
 * Unknown fields in a manifest. The models' `validate()` (kubernetes-models, @kubernetes-models/keda)
 * checks types, enums and required fields, but the Kubernetes schemas allow extra properties, so a
 * misspelt field (`readOnlyRootFileSystem`, `readinesProbe`) would pass there and be dropped by the
 * API server. This walks each object along the TypeScript declarations that ship with the same
 * models (the `I<Kind>` interfaces, generated from the same OpenAPI schemas) and names every key
 * the type does not have.
 */
import path from 'node:path';
import ts from 'typescript';

/** Kind → the module and interface that declare it. */
const DECLARATIONS: Record<string, [module: string, name: string]> = {
  'apps/v1/Deployment': ['kubernetes-models/apps/v1/Deployment', 'IDeployment'],
  'v1/Service': ['kubernetes-models/v1/Service', 'IService'],
  'v1/ConfigMap': ['kubernetes-models/v1/ConfigMap', 'IConfigMap'],
  'v1/Secret': ['kubernetes-models/v1/Secret', 'ISecret'],
  'batch/v1/Job': ['kubernetes-models/batch/v1/Job', 'IJob'],
  'policy/v1/PodDisruptionBudget': [
    'kubernetes-models/policy/v1/PodDisruptionBudget',
    'IPodDisruptionBudget',
  ],
  'networking.k8s.io/v1/Ingress': ['kubernetes-models/networking.k8s.io/v1/Ingress', 'IIngress'],
  'keda.sh/v1alpha1/ScaledObject': ['@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject', 'IScaledObject'],
  'keda.sh/v1alpha1/TriggerAuthentication': [
    '@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication',
    'ITriggerAuthentication',
  ],
};

export const declaredKinds = () => Object.keys(DECLARATIONS);

let cached: { checker: ts.TypeChecker; types: Map<string, ts.Type> } | undefined;

/** One TypeScript program over the declarations (built once; a few seconds). */
function program() {
  if (cached) return cached;
  const root = path.resolve(__dirname, '../../..');
  const probe = path.join(root, 'tests/src/k8s/__declared-kinds__.ts');
  const entries = Object.entries(DECLARATIONS);
  const text = entries
    .map(
      ([, [mod, name]], i) => `import type { ${name} as T${i} } from '${mod}';\nexport type K${i} = T${i};`,
    )
    .join('\n');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, ...rest) =>
    path.resolve(file) === probe ? ts.createSourceFile(file, text, lang) : getSourceFile(file, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => path.resolve(file) === probe || fileExists(file);
  const prog = ts.createProgram([probe], options, host);
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(probe);
  if (!source) throw new Error('declared kinds: probe file missing');
  const types = new Map<string, ts.Type>();
  const diagnostics = ts.getPreEmitDiagnostics(prog, source);
  if (diagnostics.length > 0) {
    throw new Error(
      `declared kinds: ${ts.flattenDiagnosticMessageText(diagnostics[0]?.messageText ?? '', '\n')}`,
    );
  }
  for (const decl of source.statements.filter(ts.isTypeAliasDeclaration)) {
    const i = Number(decl.name.text.slice(1));
    types.set(entries[i]?.[0] as string, checker.getTypeAtLocation(decl.name));
  }
  cached = { checker, types };
  return cached;
}

function walk(checker: ts.TypeChecker, type: ts.Type, value: unknown, at: string, out: string[]): void {
  const t = checker.getNonNullableType(type);
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const element = checker.isArrayType(t) ? checker.getTypeArguments(t as ts.TypeReference)[0] : undefined;
    if (element) {
      for (const [i, v] of value.entries()) walk(checker, element, v, `${at}[${i}]`, out);
    }
    return;
  }
  // Unions of object shapes (none in these kinds today) and free-form maps are not checked.
  if (t.isUnion()) return;
  if (checker.getIndexInfosOfType(t).length > 0) return;
  for (const [key, v] of Object.entries(value)) {
    const prop = t.getProperty(key);
    if (!prop) {
      out.push(`${at}.${key}`);
      continue;
    }
    const decl = prop.valueDeclaration ?? prop.declarations?.[0];
    if (decl) walk(checker, checker.getTypeOfSymbolAtLocation(prop, decl), v, `${at}.${key}`, out);
  }
}

/** The paths of every key of `object` its kind's declaration lacks (empty = none). */
export function unknownFields(object: { apiVersion: string; kind: string }): string[] {
  const kind = `${object.apiVersion}/${object.kind}`;
  const { checker, types } = program();
  const type = types.get(kind);
  if (!type) throw new Error(`no declaration for ${kind}: add it to tests/src/k8s/unknown-fields.ts`);
  const out: string[] = [];
  walk(checker, type, object, kind, out);
  return out;
}
