module consigna.example/verify

go 1.18
