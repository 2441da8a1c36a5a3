package lib

import "github.com/polynfi/polynfi/nfi"

// TFGraphMode reports the TensorFlow 1.x graph-mode API.
//
// Source: TensorFlow 2.0 migration guide; tf_upgrade_v2 rename tables.
var TFGraphMode = &nfi.Rule{
	ID: "LIB-P13", Name: "tensorflow-graph-mode-api", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "TensorFlow 1.x graph-mode API",
		What:    "An import or reference that resolves to tensorflow.{placeholder, global_variables_initializer, local_variables_initializer, get_variable, variable_scope, reset_default_graph, get_default_graph}, tensorflow.train.Saver, a TF1 optimizer tensorflow.train.*Optimizer (GradientDescent, Adam, Adagrad, Adadelta, Momentum, RMSProp, Ftrl, ProximalGradientDescent, ProximalAdagrad, AdagradDA, SyncReplicas, and the base Optimizer), or the modules tensorflow.layers, tensorflow.app.flags, tensorflow.flags, tensorflow.logging (one hit per reference of the module).",
		Why:     "These APIs are absent from the TensorFlow 2 top level; tf_upgrade_v2 rewrites them to tf.compat.v1 or replaces them.",
		Bad:     "import tensorflow as tf\n\nx = tf.placeholder(tf.float32, shape=[None, 3])\n",
		Good:    "import tensorflow as tf\n\n\n@tf.function\ndef model(x):\n    return x * 2.0\n",
		Exempt:  "Files that do not import tensorflow pass; tf.compat.v1 spellings pass (they are explicit).",
		Source:  "TensorFlow 2.0 migration guide; tf_upgrade_v2 rename tables",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
