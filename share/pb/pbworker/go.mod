module pbworker

go 1.19
