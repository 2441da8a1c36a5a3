import tensorflow as tf
import tensorflow.contrib.slim as slim  # want "LIB-P14"
from tensorflow.contrib import layers  # want "LIB-P14"

fc = tf.contrib.layers.fully_connected  # want "LIB-P14"
conv = layers.conv2d  # want "LIB-P14"
net = slim.fully_connected  # want "LIB-P14"

dense = tf.keras.layers.Dense
