import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const FLOAT16 = onnx.TensorProto.DataType.FLOAT16;
const INT64 = onnx.TensorProto.DataType.INT64;

/** What the engine needs to know of a salient-object graph before it loads it. */
export interface GraphShape {
  inputName: string;
  outputName: string;
  inputWidth: number;
  inputHeight: number;
  /** True when weights are stored as float16 (they are widened before loading, see prepareGraph). */
  float16: boolean;
}

/** Thrown when a file is not a salient-object graph the engine can run; the message names what is wrong. */
export class IncompatibleGraphError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompatibleGraphError';
  }
}

function decode(bytes: Uint8Array): onnxProto.onnx.ModelProto {
  try {
    const model = onnx.ModelProto.decode(bytes);
    if (!model.graph) throw new Error('no graph');
    return model;
  } catch (error) {
    throw new IncompatibleGraphError(`not an ONNX model (${(error as Error).message})`);
  }
}

function dims(value: onnxProto.onnx.IValueInfoProto): (number | string)[] {
  return (value.type?.tensorType?.shape?.dim ?? []).map((d) => (d.dimParam ? d.dimParam : Number(d.dimValue ?? 0)));
}

/**
 * Checks that a graph takes one image (1×3×H×W float, H and W fixed) and gives one mask
 * (1×1×H×W) as its first output: the shape of ISNet, U²-Net and BiRefNet exports.
 */
export function inspectGraph(bytes: Uint8Array): GraphShape {
  const model = decode(bytes);
  const graph = model.graph!;
  const initializers = new Set((graph.initializer ?? []).map((i) => i.name));
  const inputs = (graph.input ?? []).filter((i) => !initializers.has(i.name));
  if (inputs.length !== 1) throw new IncompatibleGraphError(`expected one image input, found ${inputs.length}`);
  const input = inputs[0]!;
  const [, channels, height, width] = dims(input);
  if (dims(input).length !== 4 || channels !== 3)
    throw new IncompatibleGraphError(`expected an input of shape 1×3×H×W, found ${dims(input).join('×') || 'none'}`);
  if (typeof width !== 'number' || typeof height !== 'number' || width < 32 || height < 32) {
    throw new IncompatibleGraphError(`expected a fixed input size, found ${String(height)}×${String(width)}`);
  }
  const elemType = input.type?.tensorType?.elemType;
  if (elemType !== FLOAT) throw new IncompatibleGraphError('expected a float32 input');
  const output = graph.output?.[0];
  const outDims = output ? dims(output) : [];
  if (!output || outDims.length < 3 || outDims[outDims.length - 3] !== 1) {
    throw new IncompatibleGraphError(`expected a one-channel mask output, found ${outDims.join('×') || 'none'}`);
  }
  const float16 = (graph.initializer ?? []).some((i) => i.dataType === FLOAT16);
  return { inputName: input.name!, outputName: output.name!, inputWidth: width, inputHeight: height, float16 };
}

/** IEEE 754 half → single, for all 65536 bit patterns. */
const HALF_TO_FLOAT = (() => {
  const table = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const sign = h & 0x8000 ? -1 : 1,
      exponent = (h & 0x7c00) >> 10,
      fraction = h & 0x3ff;
    if (exponent === 0) table[h] = sign * 2 ** -14 * (fraction / 1024);
    else if (exponent === 31) table[h] = fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
    else table[h] = sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
  }
  return table;
})();

function widenTensor(tensor: onnxProto.onnx.ITensorProto): void {
  if (tensor.dataType !== FLOAT16) return;
  // Half values live in rawData, or one per int32 in int32Data; copy so the view is aligned.
  const halves = tensor.rawData?.length
    ? new Uint16Array(new Uint8Array(tensor.rawData).buffer)
    : Uint16Array.from(tensor.int32Data ?? []);
  const floats = new Float32Array(halves.length);
  for (let i = 0; i < halves.length; i++) floats[i] = HALF_TO_FLOAT[halves[i]!]!;
  tensor.rawData = new Uint8Array(floats.buffer);
  tensor.int32Data = [];
  tensor.dataType = FLOAT;
}

function widenModel(model: onnxProto.onnx.ModelProto): void {
  const graph = model.graph!;
  for (const tensor of graph.initializer ?? []) widenTensor(tensor);
  for (const node of graph.node ?? []) {
    for (const attribute of node.attribute ?? []) {
      if (node.opType === 'Cast' && attribute.name === 'to' && Number(attribute.i) === FLOAT16) attribute.i = FLOAT;
      if (attribute.t) widenTensor(attribute.t);
    }
  }
  for (const value of [...(graph.valueInfo ?? []), ...(graph.input ?? []), ...(graph.output ?? [])]) {
    const tensorType = value.type?.tensorType;
    if (tensorType?.elemType === FLOAT16) tensorType.elemType = FLOAT;
  }
}

function int64Values(tensor: onnxProto.onnx.ITensorProto): number[] {
  if (tensor.rawData?.length) return Array.from(new BigInt64Array(new Uint8Array(tensor.rawData).buffer), Number);
  return (tensor.int64Data ?? []).map(Number);
}

function setInt64Values(tensor: onnxProto.onnx.ITensorProto, values: number[]): void {
  tensor.rawData = new Uint8Array(BigInt64Array.from(values, BigInt).buffer);
  tensor.int64Data = [];
}

/**
 * The constant spatial sizes a traced graph's upsampling steps were frozen with. PyTorch traces
 * `F.interpolate(x, size=y.shape[2:])` as Resize(sizes = Concat(Shape(x)[0:2], Constant[h, w])),
 * so the [h, w] constants hold the feature sizes of the input size the graph was exported at.
 */
function frozenResizeSizes(graph: onnxProto.onnx.IGraphProto): onnxProto.onnx.ITensorProto[] {
  const producers = new Map<string, onnxProto.onnx.INodeProto>();
  for (const node of graph.node ?? []) for (const output of node.output ?? []) producers.set(output, node);
  const initializers = new Map((graph.initializer ?? []).map((tensor) => [tensor.name!, tensor]));
  const constant = (name: string): onnxProto.onnx.ITensorProto | undefined => {
    const node = producers.get(name);
    return node?.opType === 'Constant'
      ? ((node.attribute ?? []).find((a) => a.name === 'value')?.t ?? undefined)
      : initializers.get(name);
  };
  const found = new Set<onnxProto.onnx.ITensorProto>();
  for (const node of graph.node ?? []) {
    const sizes = node.opType === 'Resize' ? node.input?.[3] : undefined;
    if (!sizes) continue;
    const direct = constant(sizes);
    const parts = direct ? [direct] : (producers.get(sizes)?.input ?? []).map(constant);
    for (const part of parts) if (part && part.dataType === INT64) found.add(part);
  }
  return [...found];
}

function scaled(value: number, from: number, to: number, what: string): number {
  const result = (value * to) / from;
  if (!Number.isInteger(result))
    throw new IncompatibleGraphError(
      `cannot run at ${to}×${to}: ${what} of ${value} at ${from} does not scale to a whole number`,
    );
  return result;
}

function resizeModel(model: onnxProto.onnx.ModelProto, shape: GraphShape, size: number): void {
  const graph = model.graph!;
  const from = shape.inputWidth;
  if (shape.inputHeight !== from)
    throw new IncompatibleGraphError(
      `cannot change the input size of a ${shape.inputHeight}×${from} graph: only square inputs are rescaled`,
    );
  for (const tensor of frozenResizeSizes(graph)) {
    const values = int64Values(tensor);
    // [h, w] alone, or a whole [n, c, h, w]: only the spatial pair scales.
    const spatialFrom = values.length === 4 ? 2 : 0;
    setInt64Values(
      tensor,
      values.map((value, i) => (i >= spatialFrom ? scaled(value, from, size, 'an upsampling size') : value)),
    );
  }
  for (const value of [...(graph.input ?? []), ...(graph.output ?? [])]) {
    const dimensions = value.type?.tensorType?.shape?.dim ?? [];
    for (const dimension of dimensions.slice(-2)) {
      if (dimension.dimValue != null)
        dimension.dimValue = scaled(Number(dimension.dimValue), from, size, 'a declared dimension');
    }
  }
  // Intermediate shapes were recorded at the traced size; onnxruntime infers them again.
  graph.valueInfo = [];
}

/**
 * Rewrites a graph for the CPU, in one pass: float16 weights widened to float32 (onnxruntime's
 * CPU kernels have no float16 convolution, so a float16 graph runs with a cast around every layer:
 * widened it runs about 1.5× faster for the same masks), and, when `inputSize` differs from the
 * traced size, the input rescaled (ISNet's cost grows with the square of its input: at 768² it
 * runs in about 0.6 of the time at 1024²).
 */
export function prepareGraph(bytes: Uint8Array, shape: GraphShape, inputSize: number): Uint8Array {
  const model = decode(bytes);
  if (shape.float16) widenModel(model);
  if (inputSize !== shape.inputWidth) resizeModel(model, shape, inputSize);
  return onnx.ModelProto.encode(model).finish();
}
