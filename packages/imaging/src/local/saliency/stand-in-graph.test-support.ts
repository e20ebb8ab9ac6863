import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const { FLOAT, FLOAT16 } = onnx.TensorProto.DataType;

/** Half-precision bits of a float (round to nearest; enough for test constants). */
function toHalf(value: number): number {
  const floats = new Float32Array([value]);
  const bits = new Uint32Array(floats.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = (bits >>> 13) & 0x3ff;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7c00;
  return sign | (exponent << 10) | mantissa;
}

function tensor(name: string, values: number[], dims: number[], float16: boolean): onnxProto.onnx.ITensorProto {
  const raw = float16
    ? new Uint8Array(Uint16Array.from(values, toHalf).buffer)
    : new Uint8Array(Float32Array.from(values).buffer);
  return { name, dims, dataType: float16 ? FLOAT16 : FLOAT, rawData: raw };
}

function valueInfo(name: string, dims: number[]): onnxProto.onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } } };
}

/**
 * A real ONNX graph small enough to build in a test: a "salient-object model" that sees red.
 * mask = sigmoid(gain · (R − G) + bias), as a 1×1 convolution over the normalised input, so it
 * has the shape of ISNet (1×3×S×S in, 1×1×S×S out). With `float16` its weights are stored as
 * half floats behind casts, as IMG.LY ships ISNet.
 */
export function redSaliencyGraph(
  options: { size?: number; float16?: boolean; gain?: number; bias?: number } = {},
): Uint8Array {
  const size = options.size ?? 64;
  const float16 = options.float16 ?? false;
  const gain = options.gain ?? 40;
  const weights = tensor('weights', [gain, -gain, 0], [1, 3, 1, 1], float16);
  const bias = tensor('bias', [options.bias ?? -4], [1], float16);
  const nodes: onnxProto.onnx.INodeProto[] = float16
    ? [
        {
          opType: 'Cast',
          input: ['input'],
          output: ['input16'],
          attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT16 }],
        },
        { opType: 'Conv', input: ['input16', 'weights', 'bias'], output: ['logits16'] },
        {
          opType: 'Cast',
          input: ['logits16'],
          output: ['logits'],
          attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }],
        },
        { opType: 'Sigmoid', input: ['logits'], output: ['output'] },
      ]
    : [
        { opType: 'Conv', input: ['input', 'weights', 'bias'], output: ['logits'] },
        { opType: 'Sigmoid', input: ['logits'], output: ['output'] },
      ];
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 15 }],
    producerName: 'prodshot-test',
    graph: {
      name: 'red-saliency',
      node: nodes,
      initializer: [weights, bias],
      input: [valueInfo('input', [1, 3, size, size])],
      output: [valueInfo('output', [1, 1, size, size])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

function int64Constant(name: string, values: number[]): onnxProto.onnx.INodeProto {
  const value = {
    name,
    dims: [values.length],
    dataType: onnx.TensorProto.DataType.INT64,
    rawData: new Uint8Array(BigInt64Array.from(values, BigInt).buffer),
  };
  return {
    opType: 'Constant',
    output: [name],
    attribute: [{ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t: value }],
  };
}

/** `input` pooled by 2, then upsampled to a frozen [size, size], as PyTorch traces F.interpolate(size=y.shape[2:]). */
function frozenUpsample(input: string, output: string, size: number): onnxProto.onnx.INodeProto[] {
  const int = onnx.AttributeProto.AttributeType.INT,
    ints = onnx.AttributeProto.AttributeType.INTS,
    string = onnx.AttributeProto.AttributeType.STRING;
  return [
    {
      opType: 'MaxPool',
      input: [input],
      output: [`${output}-pooled`],
      attribute: [
        { name: 'kernel_shape', type: ints, ints: [2, 2] },
        { name: 'strides', type: ints, ints: [2, 2] },
      ],
    },
    { opType: 'Shape', input: [`${output}-pooled`], output: [`${output}-shape`] },
    int64Constant(`${output}-zero`, [0]),
    int64Constant(`${output}-two`, [2]),
    {
      opType: 'Slice',
      input: [`${output}-shape`, `${output}-zero`, `${output}-two`, `${output}-zero`],
      output: [`${output}-batch-channels`],
    },
    int64Constant(`${output}-frozen`, [size, size]),
    {
      opType: 'Concat',
      input: [`${output}-batch-channels`, `${output}-frozen`],
      output: [`${output}-sizes`],
      attribute: [{ name: 'axis', type: int, i: 0 }],
    },
    {
      opType: 'Resize',
      input: [`${output}-pooled`, '', '', `${output}-sizes`],
      output: [output],
      attribute: [{ name: 'mode', type: string, s: new TextEncoder().encode('linear') }],
    },
  ];
}

/**
 * The red graph with ISNet's traced upsampling: the logits pooled and upsampled twice, to frozen
 * sizes of S/2 and S, so running it at another size needs its constants rescaled.
 */
export function tracedRedSaliencyGraph(size = 64): Uint8Array {
  const model = onnx.ModelProto.decode(redSaliencyGraph({ size }));
  const graph = model.graph!;
  const sigmoid = graph.node!.find((node) => node.opType === 'Sigmoid')!;
  sigmoid.input = ['upsampled'];
  graph.node = [
    ...graph.node!.filter((node) => node !== sigmoid),
    ...frozenUpsample('logits', 'half', size / 2),
    ...frozenUpsample('half', 'upsampled', size),
    sigmoid,
  ];
  return onnx.ModelProto.encode(model).finish();
}

/** A graph with the wrong shape for a cutout model: two inputs. */
export function twoInputGraph(): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 15 }],
    graph: {
      name: 'sum',
      node: [{ opType: 'Add', input: ['a', 'b'], output: ['output'] }],
      input: [valueInfo('a', [1, 3, 64, 64]), valueInfo('b', [1, 3, 64, 64])],
      output: [valueInfo('output', [1, 3, 64, 64])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
