package lib

import "github.com/polynfi/polynfi/nfi"

// TFContrib reports the reference to tf.contrib.
//
// Source: TensorFlow 2.0 release notes.
var TFContrib = &nfi.Rule{
	ID: "LIB-P14", Name: "tensorflow-contrib", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "reference to tf.contrib",
		What:    "An import or reference that resolves to tensorflow.contrib or anything under it (one hit per reference chain or import).",
		Why:     "tf.contrib was removed in TensorFlow 2.0; its pieces moved to core, tf.keras, TF Addons or TF Probability.",
		Bad:     "import tensorflow as tf\n\nlayer = tf.contrib.layers.fully_connected\n",
		Good:    "import tensorflow as tf\n\nlayer = tf.keras.layers.Dense\n",
		Exempt:  "Files that do not import tensorflow pass.",
		Source:  "TensorFlow 2.0 release notes",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
