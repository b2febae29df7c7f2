// Benchmarks that print one figure a line as `name: value unit`.
print("flowstack-bench")
