import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import direction between workspaces: apps build on packages, packages never reach up into an
// app or into scripts, and no two packages lean on each other. ESLint checks each import against
// the first two (eslint.config.js); this checks the whole graph, which a per-file rule cannot.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type Layer = 'app' | 'package' | 'scripts';

interface Workspace {
  name: string;
  dir: string;
  layer: Layer;
  /** The workspaces its package.json names, in any dependency field. */
  declared: string[];
}

function readWorkspaces(): Workspace[] {
  const folders = [
    ...readdirSync(path.join(repoRoot, 'apps')).map((name) => ({
      dir: path.join('apps', name),
      layer: 'app' as const,
    })),
    ...readdirSync(path.join(repoRoot, 'packages')).map((name) => ({
      dir: path.join('packages', name),
      layer: 'package' as const,
    })),
    { dir: 'scripts', layer: 'scripts' as const },
  ];
  return folders.map(({ dir, layer }) => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string> | string | undefined
    >;
    const fields = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].map((field) =>
      Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
    );
    return {
      name: manifest.name as string,
      dir,
      layer,
      declared: fields.flat().filter((dependency) => dependency.startsWith('@prodshot/')),
    };
  });
}

/**
 * The test harness sits above the packages it tests: db's, queue's and storage's own tests run on
 * it without naming it in package.json, where it would close a cycle (testing builds on db).
 */
const TEST_HARNESS = '@prodshot/testing';
const isTestFile = (file: string) =>
  /\.test\.tsx?$|\.test-support\.ts$/.test(file) || file.split(path.sep).includes('e2e');

/** Every `@prodshot/…` workspace a workspace's TypeScript imports, static or dynamic, by package name (the harness left out of tests). */
function importedWorkspaces(dir: string): Set<string> {
  const found = new Set<string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      if (entry === 'node_modules' || entry === 'dist') continue;
      const file = path.join(folder, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.(ts|tsx|mts)$/.test(entry)) {
        for (const match of readFileSync(file, 'utf8').matchAll(
          /(?:from\s+|import\s*\(\s*)['"](@prodshot\/[a-z-]+)/g,
        )) {
          if (!(match[1] === TEST_HARNESS && isTestFile(file))) found.add(match[1]!);
        }
      }
    }
  };
  for (const sub of ['src', 'e2e']) {
    const folder = path.join(repoRoot, dir, sub);
    if (statSync(folder, { throwIfNoEntry: false })?.isDirectory()) walk(folder);
  }
  return found;
}

/** A dependency cycle as a path of names (first = last), or null when the graph has none. */
function findCycle(edges: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'visiting') return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, 'visiting');
    trail.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const workspaces = readWorkspaces();
const layerOf = new Map(workspaces.map((workspace) => [workspace.name, workspace.layer]));

describe('the workspace graph', () => {
  it('declares in package.json every workspace a workspace imports, so the graph below is the real one', () => {
    const undeclared = workspaces.flatMap((workspace) =>
      [...importedWorkspaces(workspace.dir)]
        .filter((name) => name !== workspace.name && !workspace.declared.includes(name))
        .map((name) => `${workspace.name} imports ${name}`),
    );
    expect(undeclared).toEqual([]);
  });

  it('has packages depend on packages only: never on an app or on scripts', () => {
    const upward = workspaces
      .filter((workspace) => workspace.layer === 'package')
      .flatMap((workspace) =>
        workspace.declared
          .filter((name) => layerOf.get(name) !== 'package')
          .map((name) => `${workspace.name} → ${name}`),
      );
    expect(upward).toEqual([]);
  });

  it('has apps depend on packages only: never on another app or on scripts', () => {
    const sideways = workspaces
      .filter((workspace) => workspace.layer === 'app')
      .flatMap((workspace) =>
        workspace.declared
          .filter((name) => layerOf.get(name) !== 'package')
          .map((name) => `${workspace.name} → ${name}`),
      );
    expect(sideways).toEqual([]);
  });

  it('has scripts depend on packages only', () => {
    const scripts = workspaces.find((workspace) => workspace.layer === 'scripts')!;
    expect(scripts.declared.filter((name) => layerOf.get(name) !== 'package')).toEqual([]);
  });

  it('has no cycle', () => {
    expect(findCycle(new Map(workspaces.map((workspace) => [workspace.name, workspace.declared])))).toBeNull();
  });

  it('finds a cycle where there is one', () => {
    const edges = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycle(edges)).toEqual(['a', 'b', 'c', 'a']);
    expect(
      findCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeNull();
  });
});
