mod cycles;
