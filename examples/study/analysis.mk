# The analysis: changing these reruns only the analysis.
LEVEL = 0.95
THRESHOLD = 1.02
TARGET = 0.005
