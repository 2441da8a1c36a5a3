import tensorflow as tf
from tensorflow import InteractiveSession  # want "LIB-P12"


def run(x):
    with tf.Session() as sess:  # want "LIB-P12"
        return sess.run(x)


def compat(x):
    with tf.compat.v1.Session() as sess:  # want "LIB-P12"
        return sess.run(x), InteractiveSession  # want "LIB-P12"


@tf.function
def modern(x):
    return x * 2
