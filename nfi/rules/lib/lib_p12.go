package lib

import "github.com/polynfi/polynfi/nfi"

// TFSession reports the TensorFlow 1.x session.
//
// Source: TensorFlow 2.0 migration guide; SWE-NFI paper example (tf.Session).
var TFSession = &nfi.Rule{
	ID: "LIB-P12", Name: "tensorflow-session", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "TensorFlow 1.x session",
		What:    "An import or reference that resolves to tensorflow.Session or tensorflow.InteractiveSession, or to tensorflow.compat.v1.Session / InteractiveSession in a file that never calls tensorflow.compat.v1.disable_v2_behavior() (a file that does runs in TF1 mode on purpose).",
		Why:     "TensorFlow 2 executes eagerly and has no sessions at the top level; tf.Session raises AttributeError.",
		Bad:     "import tensorflow as tf\n\n\ndef run(x):\n    with tf.Session() as sess:\n        return sess.run(x)\n",
		Good:    "import tensorflow as tf\n\n\n@tf.function\ndef run(x):\n    return x\n",
		Exempt:  "Files that do not import tensorflow pass.",
		Source:  "TensorFlow 2.0 migration guide; SWE-NFI paper example (tf.Session)",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
