import tensorflow as tf
from tensorflow import placeholder  # want "LIB-P13"

x = tf.placeholder(tf.float32, shape=[None, 3])  # want "LIB-P13"
y = placeholder(tf.float32)  # want "LIB-P13"
h = tf.layers.dense(x, 10)  # want "LIB-P13"
opt = tf.train.AdamOptimizer(0.01)  # want "LIB-P13"
init = tf.global_variables_initializer()  # want "LIB-P13"
tf.logging.set_verbosity(tf.logging.INFO)  # want "LIB-P13" "LIB-P13"

layer = tf.keras.layers.Dense(10)
opt2 = tf.keras.optimizers.Adam(0.01)
ckpt = tf.train.Checkpoint(model=layer)
v1 = tf.compat.v1.placeholder(tf.float32)
